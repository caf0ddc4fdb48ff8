"""Ravenpost background work: RQ jobs (projection, notification, deadlines) and mail backends."""
