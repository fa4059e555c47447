"""A tiny outside compiler built on xDSL, which embeds xsparse through xDSL's plugins."""
