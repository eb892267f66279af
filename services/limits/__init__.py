"""Rate limits (the windows a request is counted in) and the usage counters behind the
portal's charts."""
