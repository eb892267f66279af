"""What every capability shares: actors, the unit of work, the event outbox, in-process
signals, keyset paging, the job queue and outbound HTTP behind the SSRF guard."""
