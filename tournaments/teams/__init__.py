"""Team competitions as pure functions: the rules as data, the schedules, match scores and standings."""
