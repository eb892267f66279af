"""Background jobs on RQ: one module per job family, each job a thin function that calls
services inside a unit of work (`@transactional`). Services enqueue jobs by dotted name
(services/core/queue.py); jobs/worker.py runs them in the app context."""
