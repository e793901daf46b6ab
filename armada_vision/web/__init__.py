"""The referee's server and phone page: FastAPI app, background pipeline, pushed updates.

Entry point: :func:`armada_vision.web.app.create_app`; ``armada-vision serve`` runs it.
"""
