"""What several migrations share."""


def drop_sqlite_cache_triggers(apps, schema_editor):
    """SQLite rebuilds a table to add or drop a foreign key, and a trigger of another table that names it
    stops the rebuild: the page-cache triggers go first, and post_migrate puts them back."""
    if schema_editor.connection.vendor != "sqlite":
        return
    with schema_editor.connection.cursor() as cursor:
        cursor.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'damier_cache_%'")
        for (name,) in cursor.fetchall():
            cursor.execute(f'DROP TRIGGER IF EXISTS "{name}"')
