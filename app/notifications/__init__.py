"""Telling people about their tables when they are not looking: e-mail, Web Push, webhooks."""
