// The uploader computes each payload's id as the collector does, and deletes by it.
@_exported import PayloadIdentity
