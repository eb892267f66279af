"""The operator commands (`flask --app app ...`, CONTRACT §8): one module per capability, named
as in capabilities.py, each exposing `COMMANDS`, the groups and commands it adds to `flask`
itself; the app factory adds them. A command in a group several capabilities share
(`tenants`, `documents`, defined in cli/boundary.py) attaches to that group when its module is
imported, as an api module's routes attach to the shared blueprint. Every command runs
inside cli/boundary.py's unit of work."""
