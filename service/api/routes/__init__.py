"""HTTP routes: thin views that load with a schema, call the service, dump with a schema."""
