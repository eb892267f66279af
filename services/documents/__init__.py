"""Documents and their versions: operations, filters, receiving uploads, blob storage
and the trash."""
