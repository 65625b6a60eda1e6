"""The chain every answer goes through before it reaches the document: code words, open
sentences, house style, variant spellings."""
