package stack

import (
	"fmt"
	"net/mail"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awsiam"
	"github.com/aws/aws-cdk-go/awscdk/v2/awslambda"
	"github.com/aws/jsii-runtime-go"
)

// SenderIdentities are the SES identities that may stand for MAIL_FROM: the
// address itself and its domain (SES authorises a send against whichever
// of the two the operator verified).
func SenderIdentities(mailFrom string) (address, domain string, err error) {
	a, err := mail.ParseAddress(mailFrom)
	if err != nil {
		return "", "", fmt.Errorf("mailFrom %q is not an email address: %w", mailFrom, err)
	}
	at := strings.LastIndex(a.Address, "@")
	return strings.ToLower(a.Address), strings.ToLower(a.Address[at+1:]), nil
}

// grantSendMail lets fn send mail through SES v2 (ses:SendEmail, which
// covers raw messages) as the sender of MAIL_FROM only: the identity ARNs
// of the address and of its domain in the stack's account and region.
func grantSendMail(fn awslambda.Function, mailFrom string) error {
	address, domain, err := SenderIdentities(mailFrom)
	if err != nil {
		return err
	}
	arn := func(identity string) *string {
		return awscdk.Fn_Sub(jsii.String("arn:${AWS::Partition}:ses:${AWS::Region}:${AWS::AccountId}:identity/"+identity), nil)
	}
	fn.AddToRolePolicy(awsiam.NewPolicyStatement(&awsiam.PolicyStatementProps{
		Sid:       jsii.String("SendAccountMail"),
		Actions:   jsii.Strings("ses:SendEmail"),
		Resources: &[]*string{arn(address), arn(domain)},
	}))
	return nil
}
