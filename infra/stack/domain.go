package stack

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/aws/aws-cdk-go/awscdk/v2"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscertificatemanager"
	"github.com/aws/aws-cdk-go/awscdk/v2/awscloudfront"
	"github.com/aws/constructs-go/constructs/v10"
	"github.com/aws/jsii-runtime-go"
)

// MinimumTLS is the distribution's security policy on the site's own
// domain: TLS 1.2 with forward-secret ciphers only. (CloudFront's default
// *.cloudfront.net certificate allows TLS 1.0; no setting changes that.)
var MinimumTLS = awscloudfront.SecurityPolicyProtocol_TLS_V1_2_2021

// OutputDNSRecord names the DNS record to create for SiteDomain.
const OutputDNSRecord = "DnsRecord"

var (
	hostnameRE = regexp.MustCompile(`^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$`)
	// CloudFront takes certificates from ACM in us-east-1 only.
	certificateRE = regexp.MustCompile(`^arn:aws[a-z-]*:acm:us-east-1:[0-9]{12}:certificate/[A-Za-z0-9-]+$`)
)

// checkDomain validates SiteDomain and CertificateARN (both or neither)
// and makes PublicURL https://SiteDomain (publicUrl may only repeat it).
func (p *Props) checkDomain() error {
	p.SiteDomain = strings.TrimSuffix(strings.ToLower(strings.TrimSpace(p.SiteDomain)), ".")
	p.CertificateARN = strings.TrimSpace(p.CertificateARN)
	switch {
	case p.SiteDomain == "" && p.CertificateARN == "":
		return nil
	case p.SiteDomain == "" || p.CertificateARN == "":
		return fmt.Errorf("SITE_DOMAIN (%q) and CERTIFICATE_ARN (%q) go together: set both or neither", p.SiteDomain, p.CertificateARN)
	case !hostnameRE.MatchString(p.SiteDomain):
		return fmt.Errorf("SITE_DOMAIN %q: want a host name such as app.example.com (no scheme, path or wildcard)", p.SiteDomain)
	case !certificateRE.MatchString(p.CertificateARN):
		return fmt.Errorf("CERTIFICATE_ARN %q: want an ACM certificate in us-east-1 (arn:aws:acm:us-east-1:<account>:certificate/<id>), the only region CloudFront takes", p.CertificateARN)
	}
	url := "https://" + p.SiteDomain
	if p.PublicURL != "" && strings.TrimSuffix(p.PublicURL, "/") != url {
		return fmt.Errorf("publicUrl %q disagrees with SITE_DOMAIN %q: leave publicUrl out, it follows SITE_DOMAIN", p.PublicURL, p.SiteDomain)
	}
	p.PublicURL = url
	return nil
}

// siteDomain sets the distribution's alternate domain name, its ACM
// certificate (SNI) and MinimumTLS. Without a domain it changes nothing:
// the distribution keeps its *.cloudfront.net name and default certificate.
func siteDomain(scope constructs.Construct, domain, certificateARN string, props *awscloudfront.DistributionProps) {
	if domain == "" {
		return
	}
	props.DomainNames = jsii.Strings(domain)
	props.Certificate = awscertificatemanager.Certificate_FromCertificateArn(scope, jsii.String("SiteCertificate"), jsii.String(certificateARN))
	props.MinimumProtocolVersion = MinimumTLS
	props.SslSupportMethod = awscloudfront.SSLMethod_SNI
}

// dnsRecordOutput tells the operator which record points the domain at the
// distribution: a CNAME, or a Route 53 alias (A and AAAA) when the domain
// is a zone apex, which cannot hold a CNAME.
func dnsRecordOutput(scope constructs.Construct, domain string, dist awscloudfront.Distribution) {
	value := awscdk.Fn_Join(jsii.String(""), &[]*string{
		jsii.String("CNAME " + domain + " → "), dist.DistributionDomainName(),
		jsii.String(" (at a zone apex: Route 53 alias A and AAAA records to that name)"),
	})
	output(scope, OutputDNSRecord, value, "DNS record that points "+domain+" at the distribution")
}
