"""marshmallow schemas at the HTTP edge: requests are loaded, answers dumped."""
