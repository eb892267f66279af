"""Events for the outside world: webhook endpoints, the delivery of the outbox's events to
them (signed, retried on a schedule, never lost) and the reconciler that keeps Redis honest."""
