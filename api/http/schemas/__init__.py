"""The HTTP door's own schemas: the error statuses' envelope (`errors`) and health's (`health`).

The request and answer models of the operations, which every door shares, are in `api.models`.
"""
