"""Widgets of the browser screen. They show what they are given and post messages up."""
