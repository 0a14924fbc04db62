"""What every table family shares: the errors a backend raises, the text and number
checks at the storage boundary, and the SQL plumbing both backends run the shared SQL on."""
