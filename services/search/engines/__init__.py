"""The two search engines behind one interface: PostgreSQL full text and SQLite FTS5."""
