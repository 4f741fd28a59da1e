"""HTTP and command line: settings, request/response models, error envelope, thin routes."""

VERSION = "0.1.0"
