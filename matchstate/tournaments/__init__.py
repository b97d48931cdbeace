"""The tournament desk: tournaments, their draw and schedule, standings, the discipline ledger and feeds.

A tournament is a document (:mod:`.model`) kept in the store's ``tournaments`` table (:mod:`.desk`); what
happened in its matches is never copied into it: standings and who goes on in a bracket are derived from the
matches' current state each time they are read (:mod:`.flow`), so a void of a ``match.end`` takes back
everything that flowed from it.
"""
