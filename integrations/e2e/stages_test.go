//go:build e2e

package e2e

// KWOK's Stage API (kwok.x-k8s.io/v1alpha1, Stage): a stage selects objects
// with jq-style match expressions and, after its delay, patches their status
// (next.statusTemplate, a Go template) or deletes them. Given these stages in
// --config, KWOK uses them instead of its built-in pod stages (its node stages
// stay the built-in ones: Ready, with heartbeats).

// podReadyStage makes a bound pod Running and Ready (KWOK's "fast" pod-ready
// stage, trimmed to what this suite's pods have: containers, no init
// containers). KWOK only acts on pods bound to its nodes.
const podReadyStage = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-ready
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'DoesNotExist'
    - key: '.status.podIP'
      operator: 'DoesNotExist'
  next:
    statusTemplate: |
      {{ $now := Now }}
      conditions:
      - lastTransitionTime: {{ $now | Quote }}
        status: "True"
        type: Initialized
      - lastTransitionTime: {{ $now | Quote }}
        status: "True"
        type: Ready
      - lastTransitionTime: {{ $now | Quote }}
        status: "True"
        type: ContainersReady
      containerStatuses:
      {{ range .spec.containers }}
      - image: {{ .image | Quote }}
        name: {{ .name | Quote }}
        ready: true
        restartCount: 0
        state:
          running:
            startedAt: {{ $now | Quote }}
      {{ end }}
      hostIP: {{ NodeIPWith .spec.nodeName | Quote }}
      podIP: {{ PodIPWith .spec.nodeName ( or .spec.hostNetwork false ) ( or .metadata.uid "" ) ( or .metadata.name "" ) ( or .metadata.namespace "" ) | Quote }}
      phase: Running
      startTime: {{ $now | Quote }}
`

// podDeleteStage removes a deleted pod at once, as a kubelet would after its
// grace period.
const podDeleteStage = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-delete
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'Exists'
  next:
    finalizers:
      empty: true
    delete: true
`

// annotationDuration on a pod is how long it runs once Running, a Go
// duration ("1.5s"); podCompleteStage turns it into the pod's completion.
const annotationDuration = "e2e.specsched.io/duration"

// podCompleteStage ends a Running pod that carries annotationDuration after
// that duration: phase Succeeded, its containers terminated with exit code 0.
// The stage's delay is counted from when the pod matched the selector, that
// is from when it became Ready.
const podCompleteStage = `apiVersion: kwok.x-k8s.io/v1alpha1
kind: Stage
metadata:
  name: pod-complete
spec:
  resourceRef:
    apiGroup: v1
    kind: Pod
  selector:
    matchExpressions:
    - key: '.metadata.deletionTimestamp'
      operator: 'DoesNotExist'
    - key: '.status.phase'
      operator: 'In'
      values:
      - 'Running'
    - key: '.metadata.annotations["` + annotationDuration + `"]'
      operator: 'Exists'
  delay:
    durationMilliseconds: 0
    durationFrom:
      expressionFrom: '.metadata.annotations["` + annotationDuration + `"]'
  next:
    statusTemplate: |
      {{ $now := Now }}
      {{ $root := . }}
      conditions:
      - lastTransitionTime: {{ $now | Quote }}
        status: "False"
        type: Ready
      containerStatuses:
      {{ range $index, $item := .spec.containers }}
      {{ $origin := index $root.status.containerStatuses $index }}
      - image: {{ $item.image | Quote }}
        name: {{ $item.name | Quote }}
        ready: false
        restartCount: 0
        started: false
        state:
          terminated:
            exitCode: 0
            finishedAt: {{ $now | Quote }}
            reason: Completed
            startedAt: {{ $origin.state.running.startedAt | Quote }}
      {{ end }}
      phase: Succeeded
`

// podStagesRun: bound pods run until deleted.
const podStagesRun = podReadyStage + "---\n" + podDeleteStage

// podStagesComplete: bound pods run for their annotationDuration, then
// succeed.
const podStagesComplete = podReadyStage + "---\n" + podCompleteStage + "---\n" + podDeleteStage
