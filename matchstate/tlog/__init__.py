"""A transparency log's parts, in the field's standard forms: RFC 6962 Merkle trees and their proofs
(:mod:`.merkle`), C2SP signed notes (:mod:`.note`), checkpoints (:mod:`.checkpoint`) and tlog proofs
(:mod:`.proof`). Nothing here knows about matches: the store's league log builds on it."""
