"""eForms: forms defined by a JSON Schema, their versions, submissions with files,
the CSV export and the public form page's fields (docs/forms.md)."""
