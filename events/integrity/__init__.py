"""What makes the record checkable: hashes, chains, signatures, the Merkle log, the offline verifier."""
