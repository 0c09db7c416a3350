"""Bring-up suite for a new card (or the virtual one)."""
