"""The Jinja2 templates of replies, reports and press, installed as the package gm.templates."""
