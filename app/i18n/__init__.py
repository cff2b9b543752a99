"""Parlour in several languages: which language each person reads, and the gettext
catalogues (through Babel) that say every word in it.

- ``languages``: the languages Parlour speaks and how a request's language is chosen (the
  account's setting, else the ``lang`` cookie the picker sets, else ``Accept-Language``,
  else English).
- ``catalogues``: one :class:`Words` per language — gettext with plural forms from the
  catalogue, numbers and dates as the language writes them — over three domains:
  ``messages`` (pages, errors, e-mails and notifications), ``games`` (the accounts of moves,
  card names) and ``client`` (the browser's scripts, sent to it as JSON).
- ``pages``: the Jinja2 environments, one per language, with the i18n extension.

The catalogues live in app/i18n/locale/<language>/LC_MESSAGES/<domain>.po; `make
translations` compiles them (the compiled .mo files are never committed).
"""
