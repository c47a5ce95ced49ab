"""Reads for the dashboard, one module per concept (HackSoft's "selectors"): presenters and views
ask these for rows instead of building ORM queries of their own, so each question the dashboard
asks the database is written once, under the concept it is about. Reads only: the store writes.
"""
