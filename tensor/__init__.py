"""A minimal lazy tensor library that runs on the drivers in this project."""
