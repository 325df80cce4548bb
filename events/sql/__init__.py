"""What the SQL backends share: row mappers and column lists (:mod:`.rows`),
the small differences between SQL dialects (:mod:`.dialect`), and the
catalogue, tournament and delivery SQL that reads the same on both
(:mod:`.catalogue`, :mod:`.tournaments`, :mod:`.deliveries`).  Appends,
game creation and connection handling stay per backend."""
