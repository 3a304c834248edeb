"""Seven Days to the River Rhine (Great Escape Games, 2019): Cold War miniatures rules."""
