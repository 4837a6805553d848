package stack_test

import (
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-cdk-go/awscdk/v2/assertions"
	"github.com/aws/jsii-runtime-go"

	"aiwork/infra/stack"
)

// mcpFunctions reach MCP servers and registries: public hosts only.
var mcpFunctions = []string{"mcp", "mcp-jobs"}

// A Lambda outside a VPC has outbound internet and no way into a private
// network; in a VPC it would reach that VPC (and whatever is peered to it)
// but not the internet without a NAT. So "outbound internet and nothing
// else of the network" is: no VpcConfig. The dialer's rules (DESIGN §7)
// then refuse loopback, private and link-local addresses, and with
// MCP_HTTPS_ONLY plain http.
func TestMCPFunctionsAreOutsideAnyVPCAndHTTPSOnly(t *testing.T) {
	for _, name := range []string{mainStack, plainStack} {
		tp := synth(t, name)
		noVPC := tp.FindResources(jsii.String("AWS::Lambda::Function"), map[string]any{
			"Properties": assertions.Match_ObjectLike(&map[string]any{"VpcConfig": assertions.Match_Absent()}),
		})
		httpsOnly := tp.FindResources(jsii.String("AWS::Lambda::Function"), map[string]any{
			"Properties": assertions.Match_ObjectLike(&map[string]any{
				"Environment": map[string]any{"Variables": assertions.Match_ObjectLike(&map[string]any{"MCP_HTTPS_ONLY": "true"})},
			}),
		})
		for _, fn := range mcpFunctions {
			id, r := tp.function(t, fn)
			if _, ok := (*noVPC)[id]; !ok {
				t.Errorf("%s: %s has VpcConfig %s, want none (outbound internet, no private network)", name, fn, flat(props(r, "VpcConfig")))
			}
			if _, ok := (*httpsOnly)[id]; !ok {
				t.Errorf("%s: %s MCP_HTTPS_ONLY = %v, want \"true\"", name, fn, props(r, "Environment", "Variables", "MCP_HTTPS_ONLY"))
			}
		}
	}
}

// The key that encrypts users' MCP API keys is generated at deploy as 64
// hex digits: 32 random bytes, an AES-256 key.
func TestMCPKeyEncryptionKeyIsGeneratedAsAnAES256HexKey(t *testing.T) {
	tp := synth(t, mainStack)
	check(t, "secret", func() {
		tp.HasResourceProperties(jsii.String("AWS::SecretsManager::Secret"), map[string]any{
			"Name":         stack.SecretName(mainStack, stack.SecretMCPKeyEncryptionKey),
			"SecretString": assertions.Match_Absent(),
			"GenerateSecretString": assertions.Match_ObjectLike(&map[string]any{
				"PasswordLength":     float64(64),
				"ExcludePunctuation": true,
			}),
		})
	})
	// The generator's alphabet, worked out from what the template says.
	id := secretLogicalIDs(t, tp)[stack.SecretMCPKeyEncryptionKey]
	gen, _ := props(tp.Resources[id], "GenerateSecretString").(map[string]any)
	classes := []struct{ flag, chars string }{
		{"ExcludeLowercase", "abcdefghijklmnopqrstuvwxyz"},
		{"ExcludeUppercase", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"},
		{"ExcludeNumbers", "0123456789"},
		{"ExcludePunctuation", "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~"},
		{"IncludeSpace", " "},
	}
	excluded, _ := gen["ExcludeCharacters"].(string)
	var alphabet []string
	for _, c := range classes {
		on := gen[c.flag] != true
		if c.flag == "IncludeSpace" {
			on = gen[c.flag] == true
		}
		for _, r := range c.chars {
			if on && !strings.ContainsRune(excluded, r) {
				alphabet = append(alphabet, string(r))
			}
		}
	}
	sort.Strings(alphabet)
	if got := strings.Join(alphabet, ""); got != "0123456789abcdef" {
		t.Errorf("generated from %q (%s), want lowercase hex digits", got, flat(gen))
	}
}

// Every IAM policy of the stack is searched for statements on the key
// secret: the mcp function's role (it seals users' keys, and opens an
// operator's OAuth client secret at sign-in), the chat function's (it
// opens a user's own key to call their tools) and the admin function's (it
// seals the operator's client secret an admin sets) are the only readers,
// and nothing may read secrets through a wildcard resource or a resource
// policy.
func TestOnlyMCPChatAndAdminCanReadTheKeyEncryptionKey(t *testing.T) {
	tp := synth(t, mainStack)
	key := secretLogicalIDs(t, tp)[stack.SecretMCPKeyEncryptionKey]
	if key == "" {
		t.Fatalf("no %s secret", stack.SecretMCPKeyEncryptionKey)
	}
	_, mcp := tp.function(t, "mcp")
	_, chat := tp.function(t, "chat")
	_, adm := tp.function(t, "admin")
	var readers []string
	scan := func(where string, principals []string, sts []statement) {
		for _, st := range sts {
			if st.Effect != "Allow" {
				continue
			}
			all := strings.Join(st.Actions, " ")
			if all == "secretsmanager:GetRandomPassword" {
				continue // reads no secret; the rotation function's (rotation.go)
			}
			secretActions := strings.Contains(all, "secretsmanager:")
			for _, r := range st.Resources {
				id := ref(r)
				if secretActions && tp.Resources[id].Type != "AWS::SecretsManager::Secret" {
					t.Errorf("%s: secretsmanager statement on %s, want named secrets only", where, flat(r))
				}
				if id == key || contains(refsIn(r), key) {
					readers = append(readers, principals...)
				}
			}
		}
	}
	for _, id := range tp.ofType("AWS::IAM::Policy") {
		p := tp.Resources[id]
		var principals []string
		for _, field := range []string{"Roles", "Users", "Groups"} {
			for _, r := range asList(props(p, field)) {
				principals = append(principals, field+":"+ref(r))
			}
		}
		scan(id, principals, statements(props(p, "PolicyDocument", "Statement")))
	}
	for _, id := range tp.ofType("AWS::IAM::Role") {
		for _, p := range asList(props(tp.Resources[id], "Policies")) {
			scan(id, []string{"Roles:" + id}, statements(p.(map[string]any)["PolicyDocument"].(map[string]any)["Statement"]))
		}
	}
	for _, id := range tp.ofType("AWS::IAM::ManagedPolicy") {
		scan(id, []string{"ManagedPolicy:" + id}, statements(props(tp.Resources[id], "PolicyDocument", "Statement")))
	}
	if got, want := sortedSet(readers), sortedSet([]string{"Roles:" + ref(props(mcp, "Role")), "Roles:" + ref(props(chat, "Role")), "Roles:" + ref(props(adm, "Role"))}); !equal(got, want) {
		t.Errorf("%s is readable by %v, want the mcp, chat and admin functions' roles only %v", stack.SecretMCPKeyEncryptionKey, got, want)
	}
	// The one resource policy is the CDK's on the rotated JWT secret: it
	// denies the account root DeleteSecret. No secret policy allows.
	for _, id := range tp.ofType("AWS::SecretsManager::ResourcePolicy") {
		for _, st := range statements(props(tp.Resources[id], "ResourcePolicy", "Statement")) {
			if st.Effect != "Deny" {
				t.Errorf("secret resource policy %s allows: %s", id, flat(st.Raw))
			}
		}
	}
}
