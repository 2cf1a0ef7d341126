"""Rating lists as dated imports: reading federations' files, the column mapping, the import service."""
