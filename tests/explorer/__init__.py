"""Tests of the explorer."""
