"""Share links: create, list and revoke them, the tenant's switch, and what the public page
`/s/<token>` needs (finding a link by its token, the password check and its throttle, and
counting a download) (docs/sharing.md)."""
