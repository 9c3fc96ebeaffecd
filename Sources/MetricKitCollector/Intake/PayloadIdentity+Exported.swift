// The collector's API speaks of payloads by their ``PayloadID`` and refuses text with a
// ``JSONTextError``: both are the identity module's, which the uploader shares.
@_exported import PayloadIdentity
