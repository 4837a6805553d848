package chatapi

import (
	"fmt"
	"strings"

	"aiwork/shared/chat"
	"aiwork/shared/httpx"
)

// attachmentInput names a resource of one of the caller's MCP connections
// to give the model with the message; Name is the label the client showed.
type attachmentInput struct {
	ConnectionID string `json:"connection_id"`
	URI          string `json:"uri"`
	Name         string `json:"name"`
}

// maxAttachmentURI bounds a resource's URI.
const maxAttachmentURI = 4096

// attachments checks a message's attachments: at most
// chat.MaxAttachments, each a connection id and a URI, each once; only
// with a new message (a resumed reply attaches nothing).
func attachments(in []attachmentInput, newMessage bool) ([]chat.AttachmentRef, error) {
	if len(in) == 0 {
		return nil, nil
	}
	if !newMessage {
		return nil, httpx.Invalid("Attachments go with a new message only.")
	}
	if len(in) > chat.MaxAttachments {
		return nil, httpx.Invalid(fmt.Sprintf("A message may attach at most %d resources.", chat.MaxAttachments))
	}
	var out []chat.AttachmentRef
	for i, a := range in {
		ref := chat.AttachmentRef{ConnectionID: strings.TrimSpace(a.ConnectionID), URI: strings.TrimSpace(a.URI), Name: a.Name}
		switch {
		case ref.ConnectionID == "":
			return nil, httpx.Invalid(fmt.Sprintf("attachments[%d].connection_id is required", i))
		case len(ref.ConnectionID) > 100:
			return nil, httpx.NotFound("MCP connection not found. Connect the server again in the MCP Registry.")
		case ref.URI == "":
			return nil, httpx.Invalid(fmt.Sprintf("attachments[%d].uri is required", i))
		case len(ref.URI) > maxAttachmentURI:
			return nil, httpx.Invalid(fmt.Sprintf("attachments[%d].uri is too long.", i))
		}
		dup := false
		for _, o := range out {
			dup = dup || (o.ConnectionID == ref.ConnectionID && o.URI == ref.URI)
		}
		if !dup {
			out = append(out, ref)
		}
	}
	return out, nil
}
