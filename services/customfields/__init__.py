"""Custom fields: a tenant's typed fields, the documents' values of them, and the
customFieldQuery filter of the documents list (docs/customfields.md)."""
