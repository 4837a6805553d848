module aiwork/infra

go 1.26.8
