package localcheckout

import "html/template"

// page is the local test checkout: what Stripe's hosted page would show,
// clearly labelled as a test where no money moves.
var page = template.Must(template.New("checkout").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Local test checkout</title>
<style>
  :root { color-scheme: light dark; font-family: system-ui, sans-serif; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: #f4f5f7; }
  @media (prefers-color-scheme: dark) { body { background: #16181d; } main { background: #22252c !important; } }
  main { width: min(420px, calc(100vw - 32px)); background: #fff; border-radius: 12px; padding: 28px; box-shadow: 0 4px 24px rgba(0,0,0,.08); }
  .badge { display: inline-block; background: #fff4ce; color: #6b4f00; border-radius: 999px; padding: 4px 12px; font-size: 13px; font-weight: 600; }
  h1 { font-size: 20px; margin: 16px 0 4px; }
  .amount { font-size: 32px; font-weight: 700; margin: 12px 0; }
  .notice { font-size: 14px; opacity: .8; line-height: 1.5; }
  form { display: inline; }
  .actions { display: flex; gap: 12px; margin-top: 24px; flex-wrap: wrap; }
  button { font: inherit; font-weight: 600; border-radius: 8px; padding: 12px 20px; cursor: pointer; border: 1px solid #888; background: transparent; color: inherit; }
  button.pay { background: #4f46e5; border-color: #4f46e5; color: #fff; flex: 1; }
  .error { color: #b42318; font-weight: 600; }
</style>
</head>
<body>
<main>
  <span class="badge">Local test checkout</span>
  <h1>{{.Product}}</h1>
  <div class="amount" data-testid="checkout-amount">{{.Amount}}</div>
  <p class="notice">This is the local test checkout used when no Stripe key is configured.
     No card is needed and <strong>no money moves</strong>. Pay completes the purchase the way
     Stripe would, by sending a signed <code>checkout.session.completed</code> event to the webhook.</p>
  {{if .Error}}<p class="error" role="alert">{{.Error}}</p>{{end}}
  {{if .Open}}
  <div class="actions">
    <form method="post" action="{{.PayURL}}"><button class="pay" type="submit">Pay {{.Amount}}</button></form>
    <form method="post" action="{{.CancelURL}}"><button type="submit">Cancel</button></form>
  </div>
  {{else}}
  <p class="notice">This checkout session is {{.Status}}.</p>
  {{end}}
</main>
</body>
</html>
`))

type pageData struct {
	Product, Amount, PayURL, CancelURL, Status, Error string
	Open                                              bool
}
