"""The front end's scenes: launcher, set-up, play, hand-over and game over."""
