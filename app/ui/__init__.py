"""The Qt application (PySide6 + pyqtgraph). Views hold layout; Session holds behaviour."""
