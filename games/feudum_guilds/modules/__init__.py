"""Optional modules (B10): Reeves, Feast, Monsters, Vassalage, Favors."""

MODULES = ["reeves", "feast", "monsters", "vassalage", "favors"]
