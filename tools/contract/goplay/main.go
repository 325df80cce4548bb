// Command goplay plays one whole game of each type against a live server through the Go client that
// openapi-generator's `go` target writes from service/openapi.yaml with its DEFAULT options (issue 38).
//
// scripts/check-generators.sh copies this file into the generated module (package openapi, module
// github.com/GIT_USER_ID/GIT_REPO_ID) as cmd/goplay and builds it with GOPROXY=off; it uses only the
// standard library and the generated client. Every answer is decoded by the generated types: a legal-actions
// list whose bodies the client cannot tell apart (`data matches more than one schema in oneOf`) fails it.
//
//	goplay http://127.0.0.1:8000 [max-moves]
//
// Policy: claim_route, lay_tiles or roll when legal, else the first legal action (never resign).
// Exit status 0 only when both games reached `finished`.
package main

import (
	"context"
	"fmt"
	"os"
	"strconv"

	openapi "github.com/GIT_USER_ID/GIT_REPO_ID"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: goplay BASE_URL [max-moves]")
		os.Exit(2)
	}
	maxMoves := 3000
	if len(os.Args) > 2 {
		n, err := strconv.Atoi(os.Args[2])
		if err != nil {
			fmt.Fprintln(os.Stderr, "max-moves:", err)
			os.Exit(2)
		}
		maxMoves = n
	}
	cfg := openapi.NewConfiguration()
	cfg.Servers = openapi.ServerConfigurations{{URL: os.Args[1]}}
	client := openapi.NewAPIClient(cfg)
	for _, gameType := range []string{"cable-car", "ttr-sf"} {
		moves, err := play(client, gameType, maxMoves)
		if err != nil {
			fmt.Fprintf(os.Stderr, "go (default options): %s: %v\n", gameType, err)
			os.Exit(1)
		}
		fmt.Printf("go (default options): played a whole %s game, %d moves, through the generated client\n", gameType, moves)
	}
}

func create(client *openapi.APIClient, gameType string) (*openapi.GameCreated, error) {
	players := []openapi.PlayerIn{*openapi.NewPlayerIn("Ada"), *openapi.NewPlayerIn("Bo")}
	var body openapi.CreateGame
	if gameType == "cable-car" {
		game := openapi.NewCreateCableCarGame(gameType, players)
		game.SetSeed("goplay")
		body = openapi.CreateCableCarGameAsCreateGame(game)
	} else {
		game := openapi.NewCreateTtrSfGame(gameType, players)
		game.SetSeed("goplay")
		body = openapi.CreateTtrSfGameAsCreateGame(game)
	}
	created, _, err := client.GamesAPI.CreateGame(context.Background()).CreateGame(body).Execute()
	return created, err
}

// state reads the game's status and active seats through the generated GameView.
func state(client *openapi.APIClient, id string) (string, []int32, error) {
	view, _, err := client.GamesAPI.GetGame(context.Background(), id).Execute()
	if err != nil {
		return "", nil, fmt.Errorf("GET /v1/games/%s: %w", id, err)
	}
	switch v := view.GetActualInstance().(type) {
	case *openapi.CableCarView:
		return v.Status, v.ActiveSeats, nil
	case *openapi.TtrSfView:
		return v.Status, v.ActiveSeats, nil
	}
	return "", nil, fmt.Errorf("GET /v1/games/%s: no view type decoded", id)
}

// choose prefers claim_route, lay_tiles and roll, else the first action that is not resign.
func choose(actions []openapi.ActionRequest) (openapi.ActionRequest, error) {
	for _, a := range actions {
		if a.ClaimRoute != nil || a.LayTiles != nil || a.Roll != nil {
			return a, nil
		}
	}
	for _, a := range actions {
		if a.Resign == nil {
			return a, nil
		}
	}
	return openapi.ActionRequest{}, fmt.Errorf("no legal action but resign for an active seat")
}

func play(client *openapi.APIClient, gameType string, maxMoves int) (int, error) {
	created, err := create(client, gameType)
	if err != nil {
		return 0, fmt.Errorf("POST /v1/games: %w", err)
	}
	// every seat's list once: a seat that may not move now holds only `resign` (the body most schemas fit)
	for _, seat := range created.Seats {
		ctx := context.WithValue(context.Background(), openapi.ContextAccessToken, *seat.Token.Get())
		if _, _, err := client.ActionsAPI.GetLegalActions(ctx, created.Id).Execute(); err != nil {
			return 0, fmt.Errorf("seat %d: GET legal-actions: %w", seat.Seat, err)
		}
	}
	for moves := 0; moves < maxMoves; moves++ {
		status, active, err := state(client, created.Id)
		if err != nil {
			return moves, err
		}
		if status == "finished" {
			return moves, nil
		}
		if len(active) == 0 {
			return moves, fmt.Errorf("status %q with no active seat", status)
		}
		token := created.Seats[active[0]].Token.Get()
		if token == nil {
			return moves, fmt.Errorf("seat %d has no token", active[0])
		}
		ctx := context.WithValue(context.Background(), openapi.ContextAccessToken, *token)
		legal, _, err := client.ActionsAPI.GetLegalActions(ctx, created.Id).Execute()
		if err != nil {
			return moves, fmt.Errorf("move %d: GET legal-actions: %w", moves, err)
		}
		action, err := choose(legal.Actions)
		if err != nil {
			return moves, fmt.Errorf("move %d: %w", moves, err)
		}
		if _, _, err := client.ActionsAPI.PostAction(ctx, created.Id).ActionRequest(action).Execute(); err != nil {
			return moves, fmt.Errorf("move %d: POST actions: %w", moves, err)
		}
	}
	return maxMoves, fmt.Errorf("not finished after %d moves", maxMoves)
}
