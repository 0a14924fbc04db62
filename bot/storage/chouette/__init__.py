"""Chouette tables and their members (the tables ``chouettes`` and ``chouette_members``;
a table's games are ordinary matches)."""
