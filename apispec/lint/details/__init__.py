"""Stage 4 of extraction: what a call sends - its query values, filter and headers - as a Reference."""
