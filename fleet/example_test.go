package fleet_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"time"

	"github.com/toolguard/toolguard/budget"
	"github.com/toolguard/toolguard/fleet"
)

// A process opens the fleet database once (applying missing migrations)
// and takes the stores the guard uses from it (guard.Fleet does this).
func ExampleOpen() {
	ctx := context.Background()
	key, err := os.ReadFile("/etc/toolguard/fleet.key") // the fleet key every replica shares
	if err != nil {
		log.Fatal(err)
	}
	st, err := fleet.Open(ctx, "postgres://toolguard@db.internal:5432/toolguard?sslmode=verify-full", fleet.Options{Replica: "serve-1", Key: key})
	if err != nil {
		log.Fatal(err)
	}
	defer st.Close()
	ledger, err := st.Ledger(budget.Limits{MaxActionsPerHour: 20})
	if err != nil {
		log.Fatal(err)
	}
	status, err := ledger.Status(ctx, "ci-bot", nowForExample())
	fmt.Println(status.Actions, status.MaxActions, err)
}

func nowForExample() time.Time { return time.Now() }
