"""The log format's JSON Schema (``texas42-log.v1.schema.json``), generated from the
models by ``texas42 schema``. The one copy: installed inside the package as
``texas42_log.schemas`` (see ``pyproject.toml``), where validation reads it."""
