"""Pure rules for the games Cable Car serves. No I/O, no clock, no global randomness."""
