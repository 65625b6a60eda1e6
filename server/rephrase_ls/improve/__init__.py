"""The application layer: from a request to improved text (backend, options, language,
pipeline, the service round trip)."""
