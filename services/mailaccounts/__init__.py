"""Mail accounts: IMAP mailboxes polled for documents (docs/mailaccounts.md)."""
