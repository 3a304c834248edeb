"""Table geometry: continuous tables in inches (shapely); grids come later."""
