"""Real-browser tests: JupyterLab and Voila (lecture mode) driven by Playwright in Chromium."""
