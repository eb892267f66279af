"""What every capability shares: actors, the unit of work, the event outbox, in-process
signals, keyset paging and the job queue."""
