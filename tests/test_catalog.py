"""The catalog of words: every phrase has its Spanish, and the Spanish differs from the English but where polo's
own words (Chukker, Play, Umpire...) or a name or a number are the same in both."""

from matchstate.words import catalog

# Written alike in both languages: polo's words, as Spanish-speaking polo uses them; names; codes and numbers.
ALIKE = {
    "ruling.text", "console.chukker", "form.player-named", "form.no", "form.field-chukker", "form.field-chukkers",
    "form.choice-5a", "form.choice-5b", "form.choice-umpire", "form.choice-referee", "review.col-seq", "event.play",
    "event.dribble", "records.chukkers", "records.hcp", "scoreboard.chukker", "clock.ended", "sheet.chukkers",
    "sheet.hcp", "sheet.total", "sheet.foul-chukker", "sheet.umpire", "foul.dribble", "field.ipados",
    "field.android", "review-video.title", "review-video.clip", "review-officials.by-umpire",
    "review-officials.chukker", "scoreboard-review.player",
}


def test_every_phrase_has_its_spanish_and_only_polos_own_words_read_alike() -> None:
    """The console's "Decide" read "Decide" in Spanish (a helper's hunt found it): nothing else may."""
    alike = set()
    for section, entries in catalog().items():
        for key, words in entries.items():
            assert set(words) == {"en", "es"} and all(words.values()), f"{section}.{key}"
            if words["en"] == words["es"]:
                alike.add(f"{section}.{key}")
    assert alike == ALIKE
